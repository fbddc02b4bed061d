from pyengine.cli import main

raise SystemExit(main())
