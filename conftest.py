# Collected by pytest's --doctest-modules: the command-line entry point is not a module to import.
collect_ignore = ["pycore/agreekit/__main__.py"]
