"""``python -m workbench.notify ...`` is ``workbench notify ...``."""

from workbench.cli.notify import main

if __name__ == "__main__":
    main()
