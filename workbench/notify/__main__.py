"""``python -m workbench.notify ...`` is ``workbench notify ...``."""

from workbench.cli.notify import notify_app

if __name__ == "__main__":
    notify_app(prog_name="workbench notify")
