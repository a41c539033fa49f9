"""`python -m physbench`: the same process set-up as the `physbench` console script (launch.py)."""

from physbench.launch import run

run()
