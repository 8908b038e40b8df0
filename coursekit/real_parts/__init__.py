"""The real parts the tests start and drive: Chromium through playwright (`browser`), a JupyterHub with Linux accounts
(`hub`), a throw-away PostgreSQL server (`postgres`), free ports on 127.0.0.1 (`ports`) and the one way to wait for
what was started (`waiting`). Whether a part is on this machine is coursekit.parts's question."""
