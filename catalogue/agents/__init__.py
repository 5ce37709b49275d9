"""The catalogue for programs and assistants: the MCP server at ``/mcp`` (``tools``, served through
``bridge``), its discovery document ``/.well-known/mcp`` and ``/llms.txt`` (``views``).
docs/MCP.md lists the tools; the Markdown forms of pages are ``catalogue.web.markdown_forms``."""
