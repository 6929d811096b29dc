.PHONY: test demo bench lint

test:            ## install everything and run every test (what CI runs)
	bash scripts/test.sh

demo:            ## start the embedded server and run the demo against it
	bash scripts/demo.sh

bench:           ## run the benchmark suite against informix-driver and IBM JDBC
	bash scripts/bench.sh

lint:
	ruff check src tests bench examples && mypy
