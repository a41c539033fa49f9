"""Verification of the medphys suite, as a clinic commissions a system (seed 000, "Verifying the
benchmark"): a second implementation that reads every input from the prompt text, tolerance bands
derived by perturbing inputs, negative controls of the grader, and error-mode detectability."""
