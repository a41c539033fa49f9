from physbench.cli import main

main()
