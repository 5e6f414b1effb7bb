"""Tools for whoever runs the web app, apart from the app itself.

``loadtest`` plays many games through a server's public API (``shutthebox loadtest``);
``throwaway`` starts private Redis and PostgreSQL servers for it and for the tests. Neither
imports the web app: they talk to a server as any client would.
"""
