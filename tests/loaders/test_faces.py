"""The ``loaders`` and ``expectations`` faces: every listed name resolves, a submodule is still importable
through the package, and a name loads only its own module (availability without rooms and content)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


@pytest.mark.parametrize("package", ["loaders", "expectations"])
def test_every_name_of_the_face_resolves_to_its_module_object(package: str) -> None:
    face = importlib.import_module(package)
    for name in face.__all__:
        value = getattr(face, name)
        assert value is not None
        assert set(face.__all__) <= set(dir(face))
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        face.not_a_name  # noqa: B018 - the look-up is the test


def test_a_submodule_is_still_imported_through_the_package() -> None:
    from loaders import xlsx_xml  # not a face name: the import system loads the submodule

    assert xlsx_xml.__name__ == "loaders.xlsx_xml"


def test_reading_and_checking_availability_loads_neither_the_rooms_nor_the_content_code() -> None:
    code = ("import sys\nfrom loaders import read_availability, read_registry\n"
            "from expectations import validate_availability\n"
            "print(sorted(m for m in sys.modules if m.startswith(('loaders.', 'expectations.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout
    assert "'loaders.availability'" in loaded and "'expectations.availability'" in loaded
    for other in ("loaders.rooms", "loaders.content", "expectations.rooms", "expectations.content",
                  "expectations.content_geo", "expectations.rooms_modular"):
        assert f"'{other}'" not in loaded, other
