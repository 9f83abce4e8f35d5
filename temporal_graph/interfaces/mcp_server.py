"""``tgraph mcp``: the memory as a Model Context Protocol server (the official ``mcp`` SDK).

It serves the tools of :mod:`temporal_graph.tools` (one source of truth for names, descriptions
and schemas) on one group, over stdio (default) or streamable HTTP, plus a resource per group
summary. Calls run through :class:`AsyncTemporalGraph`, so a slow extraction never stalls the
server. A bad argument comes back as a tool error (``isError``) with the command line's one-line
message; the server keeps serving. It loads the embedding model as it starts (beside the serving
loop) and then says ``tgraph mcp: ready ...`` on stderr, never on stdout, which is the protocol.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote

from ..core.extras import missing

try:
    import anyio
    import mcp_types as types
    from mcp.server import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPError
except ImportError as exc:  # the optional part: say which extra brings it
    raise missing("mcp", "the MCP server", exc) from None

from .. import __version__
from ..client import TemporalGraph
from ..core import DEFAULT_GROUP
from ..core.errors import InvalidInput, NotFound, TemporalGraphError
from ..tools import ToolSpec, call_tool, error_line, group_summary, tool_spec, tool_specs
from .async_client import AsyncTemporalGraph

log = logging.getLogger(__name__)
Page = types.PaginatedRequestParams | None
SUMMARY_TEMPLATE = "memory://groups/{group_id}/summary"
INSTRUCTIONS = (
    "A bi-temporal memory: facts with when they held (valid time) and when they were learned. Call "
    "add_episode with each message worth remembering; before answering, call context (a dated memory "
    "block) or now / history / as_of / search / ask for specific facts. Corrections go to "
    "retract_fact, endings to end_fact; nothing is overwritten, so as_of with known_at shows what "
    "was believed earlier."
)


def summary_uri(group_id: str) -> str:
    return SUMMARY_TEMPLATE.format(group_id=quote(group_id, safe=""))


def build_server(
    memory: AsyncTemporalGraph, *, group_id: str = DEFAULT_GROUP, allow_forget: bool = False
) -> Server:
    """An MCP server offering the memory's tools on ``group_id`` (``forget_group`` only when allowed)."""
    specs = tool_specs(allow_forget=allow_forget)
    tools = [_tool(spec) for spec in specs]

    async def list_tools(ctx: Any, page: Page) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name, arguments = params.name, params.arguments
        try:
            spec = tool_spec(name, allow_forget=allow_forget)
            result = await memory.run(
                lambda g: call_tool(g, name, arguments, group_id=group_id, allow_forget=allow_forget),
                group_id=group_id, write=spec.writes, extracts=spec.extracts,
            )
        except (InvalidInput, NotFound, TemporalGraphError) as exc:
            log.info("tool %s refused: %s", name, error_line(exc))
            return _error(error_line(exc))
        except Exception as exc:  # a bug must not end the session: report it as the tool's failure
            log.exception("tool %s failed", name)
            return _error(f"internal error ({type(exc).__name__}: {error_line(exc)})")
        text = json.dumps(result, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                    structured_content=result)

    async def list_resources(ctx: Any, page: Page) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(
            name=f"summary of group {group_id}", uri=summary_uri(group_id), mime_type="application/json",
            description="Counts and current facts of the memory's group.",
        )])

    async def list_templates(ctx: Any, page: Page) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            name="group summary", uri_template=SUMMARY_TEMPLATE, mime_type="application/json",
            description="Counts and current facts of a group (this server serves one group).",
        )])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        asked = _summary_group(uri)
        if asked != group_id:  # one tenant per server: other groups are not readable here
            raise MCPError(code=types.INVALID_PARAMS, message=f"no resource {uri!r}; this server serves "
                           f"{summary_uri(group_id)!r}")
        summary = await memory.run(lambda g: group_summary(g, group_id), group_id=group_id)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=uri, mime_type="application/json", text=summary.model_dump_json(),
        )])

    return Server(
        "temporal-graph", version=__version__, instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call, on_list_resources=list_resources,
        on_list_resource_templates=list_templates, on_read_resource=read_resource,
    )


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name, description=spec.description, input_schema=spec.input_schema(),
        output_schema=spec.output_schema(),
        annotations=types.ToolAnnotations(read_only_hint=not spec.writes, destructive_hint=spec.destructive,
                                          open_world_hint=False),
    )


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def _summary_group(uri: str) -> str | None:
    prefix, suffix = SUMMARY_TEMPLATE.split("{group_id}")
    if uri.startswith(prefix) and uri.endswith(suffix) and len(uri) > len(prefix) + len(suffix):
        return unquote(uri[len(prefix):-len(suffix)])
    return None


def serve(graph: TemporalGraph, *, group_id: str = DEFAULT_GROUP, allow_forget: bool = False,
          http_port: int | None = None, host: str = "127.0.0.1") -> None:
    """Serve ``graph`` until the client goes away (stdio) or the process is stopped (HTTP)."""
    anyio.run(_serve, graph, group_id, allow_forget, http_port, host)


async def _serve(graph: TemporalGraph, group_id: str, allow_forget: bool, http_port: int | None,
                 host: str) -> None:
    memory = AsyncTemporalGraph(graph)  # the caller opened the graph and closes it
    server = build_server(memory, group_id=group_id, allow_forget=allow_forget)
    if http_port is None:
        _announce_when_warm(graph, "ready (stdio)")  # stderr: stdout carries the protocol
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
        return
    import uvicorn

    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=http_port, log_level="warning")
    http = uvicorn.Server(config)
    _announce_when_warm(graph, f"ready at http://{host}:{http_port}/mcp", listening=lambda: http.started)
    await http.serve()


def _announce_when_warm(graph: TemporalGraph, line: str,
                        listening: Callable[[], bool] = lambda: True) -> None:
    """Load the embedding model beside the serving loop (so the first write or search does not wait
    for it), then say ``tgraph mcp: <line>`` on stderr once the server also listens."""

    def warm() -> None:
        try:
            graph.embedder.encode(["warm up"])
        except Exception:  # the tools that do not embed still work: say so and serve
            log.exception("could not load the embedding model")
        while not listening():
            time.sleep(0.02)
        print(f"tgraph mcp: {line}", file=sys.stderr, flush=True)

    threading.Thread(target=warm, name="tgraph-mcp-warm-up", daemon=True).start()
