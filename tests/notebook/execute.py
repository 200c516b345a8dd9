"""Executes the fixture notebook in the venv's kernel (nbclient), as a learner runs it top to
bottom, writes it executed (executed.ipynb) and exported by nbconvert (export.html) into WORK, and
checks every output's size against the bound. Prints each output's size and the export's.
Usage: python execute.py FIXTURE.ipynb WORK"""

import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

from embedlab.output import MAX_OUTPUT_BYTES

fixture, work = Path(sys.argv[1]), Path(sys.argv[2])
work.mkdir(parents=True, exist_ok=True)
nb = nbformat.read(fixture, as_version=4)
started = time.perf_counter()
NotebookClient(
    nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(work)}}
).execute()
print(f"executed in {time.perf_counter() - started:.1f} s")

failures = []
shown = 0
for number, cell in enumerate(nb.cells):
    for output in cell.get("outputs", []):
        if output.output_type == "error":
            failures.append(f"cell {number}: {output.ename}: {output.evalue}")
        html = output.get("data", {}).get("text/html")
        if html is None:
            continue
        shown += 1
        size = len(html.encode())
        path = (
            "routes from the kernel"
            if re.search(r'<embedding-demo[^>]* routes="', html)
            else "whole table"
        )
        print(f"cell {number}: text/html {size:,} bytes ({path})")
        if size > MAX_OUTPUT_BYTES:
            failures.append(
                f"cell {number}: its output takes {size:,} bytes, over {MAX_OUTPUT_BYTES:,}"
            )
        if "text/plain" not in output.data:
            failures.append(f"cell {number}: no text/plain beside text/html")
if shown != 5:
    failures.append(f"expected 5 outputs of embedlab.show(), found {shown}")

nbformat.write(nb, work / "executed.ipynb")
body, _ = HTMLExporter().from_notebook_node(nb)
(work / "export.html").write_text(body, encoding="utf-8")
print(f"export.html: {len(body.encode()):,} bytes")
if failures:
    sys.exit("\n".join(failures))
