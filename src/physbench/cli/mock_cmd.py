"""`physbench mock-server`: a loopback OpenAI-compatible server, so that every endpoint example runs
offline (runner/mock_server.py; tests and benchmarks use the same server)."""

from __future__ import annotations

import json
import signal
import threading
from typing import List, Optional

import typer

DEFAULT_PORT = 8011


def register(app: typer.Typer) -> None:
    """Add `physbench mock-server`."""

    @app.command("mock-server")
    def mock_server_command(
        port: int = typer.Option(DEFAULT_PORT, "--port", help="Port on 127.0.0.1; 0 picks a free one."),
        reply: Optional[str] = typer.Option(None, "--reply",
                                            help="The reply to every request (default: \\boxed{1.018 cGy/MU}); "
                                                 "a line 'mock-reply: TEXT' in a prompt overrides it."),
        model: Optional[List[str]] = typer.Option(None, "--model",
                                                  help="A name GET /models lists (repeatable; default: mock). "
                                                       "Any name is answered."),
        config: Optional[str] = typer.Option(None, "--config",
                                             help="A JSON file of settings: reply, delay_s, faults "
                                                  "(see runner/mock_server.py)."),
        as_json: bool = typer.Option(False, "--json", help="Print the address as a JSON line."),
    ) -> None:
        """Serve an OpenAI-compatible chat endpoint on 127.0.0.1 until Ctrl-C: no key, no network, no model.

        Example: physbench mock-server --port 8011, then in another terminal
        physbench eval medphys --model openai/mock --base-url http://127.0.0.1:8011/v1 --limit 8
        """
        from physbench.core.errors import UserError
        from physbench.core.files import read_small_text
        from physbench.runner.mock_server import MockConfig, MockServer

        if not 0 <= port <= 65535:
            raise UserError("--port must be between 0 and 65535")
        settings: dict = {}
        if config is not None:
            try:
                settings = json.loads(read_small_text(config, "--config", 1 << 20))
            except ValueError as exc:
                raise UserError(f"--config {config}: not JSON ({exc})") from None
            if not isinstance(settings, dict):
                raise UserError(f"--config {config}: a JSON object of settings is expected")
        if reply is not None:
            settings["reply"] = reply
        if model:
            settings["models"] = list(model)
        try:
            server = MockServer(MockConfig.from_dict(settings), port).start()
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"--config {config}: a setting is malformed ({exc})") from None
        except (OSError, RuntimeError) as exc:
            raise UserError(f"cannot listen on 127.0.0.1:{port}: {getattr(exc, 'strerror', None) or exc}") from None
        if as_json:
            typer.echo(json.dumps({"url": server.base_url, "models": server.config.models}))
        else:
            typer.echo(f"physbench mock-server: listening {server.base_url} (models: "
                       f"{', '.join(server.config.models)}; any name is answered; Ctrl-C to stop)")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            server.stop()
