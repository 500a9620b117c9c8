"""``python -m workbench.cli ...`` is ``workbench ...``."""

from workbench.cli import main

if __name__ == "__main__":
    main()
