"""The reports: pages written from the solver's numbers, for a file or for the web app to serve.

``atlas`` writes the strategy atlas (``shutthebox atlas``: tables, and plots with matplotlib);
``cheatsheet`` draws the page to print (``shutthebox cheatsheet``, and ``/api/cheatsheet``). They
stand on the strategy and the words only, so they run with the base dependencies alone.
"""
