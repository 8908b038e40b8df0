"""Settings every Jupyter application of every account of the class's JupyterHub reads (make hub-env copies this
file into the shared environment's etc/jupyter/): the single-user servers, and nbgrader's commands, whose Validate
and generate_assignment start kernels too.

Kernels talk ZeroMQ over Unix sockets, never TCP. On 127.0.0.1 any account could connect to any kernel's ports and
read its IOPub channel (the code it runs and what it prints) without knowing its key, which only signs messages.
A Unix socket lies beside its kernel's connection file, in the owner's private runtime folder (~/.jupyter-run, 0700,
inside a home no one else may enter: jupyterhub_config.py, `runtime_dir`), or, for the kernels nbgrader's Validate
starts, in the notebook's own folder; and it is made without write permission for others, which connecting needs.
"""
c = get_config()  # noqa: F821 (provided by Jupyter when it reads this file)

c.KernelManager.transport = "ipc"
