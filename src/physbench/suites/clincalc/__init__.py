"""ClinCalc (seed 003): MedCalc-Bench Verified, its 55 calculators as a validated library, its scorer.

The domain layer: `dataset` (loader, validation, item ids), `calculators` (one function per
calculator), `scoring` (the benchmark's rules), `audit` and `errata`, `synth` (a synthetic set in
the dataset's own schema) and `formulas` (the 55 formula texts).
"""
