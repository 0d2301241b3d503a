from lumos.cli import main

raise SystemExit(main())
