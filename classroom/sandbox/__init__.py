"""Starting untrusted code: `launch` (the bubblewrap command line, the one launch point), `init_process` (PID 1 inside
the sandbox and the launcher outside it), `cgroups` (memory and process limits of a tree), `kernel` (the display
run's sandboxed kernel) and `settings` (the configuration that turns the sandbox off, knowingly)."""
