from pyengine.cli import command

command()
