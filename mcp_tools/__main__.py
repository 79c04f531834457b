from mcp_tools.stdio import main

main()
