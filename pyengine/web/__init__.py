"""The web rules explorer (`pyengine serve`): server-rendered pages with a little JavaScript over the Python API
(the table builder, answers under every reading, the annotated rulebook, disagreements), and an HTTP JSON API
whose answers are the command line's `--json`. Every answer is computed in a bounded worker (pyengine.run.runner)."""
