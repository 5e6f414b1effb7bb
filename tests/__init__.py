"""The test suite: one package, so every test module has one name (``tests.<folder>.<module>``) that
a child process can import too; what the tests share is `tests.support`."""
