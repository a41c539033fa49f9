"""`physbench view RUN_DIR... [--port P]`: browse every response beside its item in a local web page."""

from __future__ import annotations

import json
from typing import List

import typer


def register(app: typer.Typer) -> None:
    """Add `physbench view`."""

    @app.command("view")
    def view_command(
        run_dirs: List[str] = typer.Argument(..., help="One or more run directories."),
        port: int = typer.Option(8765, "--port", help="Port on 127.0.0.1; 0 picks a free one."),
        as_json: bool = typer.Option(False, "--json", help="Print the address as a JSON line."),
        verbose: bool = typer.Option(False, "--verbose", help="Log every request on stderr."),
    ) -> None:
        """Serve a page on 127.0.0.1 to browse responses: filter by model, generator, level, kind and outcome;
        see each response beside its item, reference, grade, parsed value and attributed error mode."""
        from physbench.core.errors import UserError
        from physbench.report.loading import load_runs
        from physbench.report.viewer import ViewerServer
        from physbench.report.viewer_data import ResponseIndex

        if not 0 <= port <= 65535:
            raise UserError("--port must be between 0 and 65535")
        index = ResponseIndex(load_runs(run_dirs))
        try:
            server = ViewerServer(index, port, verbose=verbose)
        except OSError as exc:
            raise UserError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
        if as_json:
            typer.echo(json.dumps({"url": server.url, "responses": len(index.entries), "runs": len(index.runs)}))
        else:
            typer.echo(f"physbench view: {len(index.entries)} responses of {len(index.runs)} run(s) at {server.url} "
                       "(Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
