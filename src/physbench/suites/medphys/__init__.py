"""MedPhysBench (seed 000): ten seeded generators x three levels; calculation and checking items."""
