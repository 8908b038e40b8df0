"""Starting untrusted code: `launchers` (the configurable launcher every student process is started by, chosen with
`c.Grader.launcher_class`: bubblewrap by default), `launch` (the bubblewrap command line and the limits-only one),
`init_process` (PID 1 inside the sandbox and the launcher outside it), `cgroups` (memory and process limits of a
tree) and `kernel` (the display run's kernel manager)."""
