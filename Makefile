# detour — see README.md. `make site` builds the shipped knowledge base, `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
ARTICLES ?= 10000
LINES ?= 2000000
EDITS ?= 30
BUILD_PACKAGES = libcmark-dev
# Real servers (nginx and its stream module, Caddy, HAProxy, Apache), the application servers behind them (PHP-FPM,
# gunicorn, uWSGI), curl and OpenSSL for the articles' reproductions, ip(8) for their private
# networks, script(1) for a terminal, and a real browser for the end-to-end tests; Node and
# acorn, a JavaScript parser, to check what minifying leaves of a script; GNU time for
# the benchmarks; dpkg-dev, lintian and man-db to build, check and use the Debian package;
# Python for gunicorn 23 and the install scripts. scripts/install-packages.sh also brings the
# libraries they load to the archive's versions, so no server warns that it was built against a
# newer one.
TEST_PACKAGES = cmark-gfm nodejs node-acorn python3-yaml nginx-light libnginx-mod-stream libnginx-mod-http-headers-more-filter libnginx-mod-http-set-misc caddy haproxy apache2 varnish php8.2-fpm gunicorn uwsgi-core uwsgi-plugin-python3 curl openssl ca-certificates bsdutils iproute2 chromium dpkg-dev lintian man-db python3 python3-pip podman runc binutils
# What the real configurations of Tests/RealConfigs load (make test runs a sample of them): the
# nginx modules Debian packages (nginx-extras' set), the VMODs of varnish-modules, mod_wsgi.
REAL_PACKAGES = libapache2-mod-wsgi-py3 libnginx-mod-http-auth-pam libnginx-mod-http-cache-purge libnginx-mod-http-dav-ext libnginx-mod-http-echo libnginx-mod-http-fancyindex libnginx-mod-http-geoip libnginx-mod-http-geoip2 libnginx-mod-http-image-filter libnginx-mod-http-js libnginx-mod-http-lua libnginx-mod-http-perl libnginx-mod-http-subs-filter libnginx-mod-http-uploadprogress libnginx-mod-http-upstream-fair libnginx-mod-http-xslt-filter libnginx-mod-mail libnginx-mod-nchan libnginx-mod-stream-geoip libnginx-mod-stream-geoip2 varnish-modules

.PHONY: site test lint format install deb test-install test-deb check-oracle check-real check-logs markdown-differential bench bench-incremental bench-check bench-diagnose bench-search bench-serve bench-verify bench-backend deps test-deps release synth clean

## site: build content/ and templates/ into public/, with the debug build the tests share: on a fresh clone it compiles in a fraction of the release build's time, and writes the same files
site: deps
	$(SWIFT) build --product detour
	.build/debug/detour build

## test: the formatting check, the whole suite, end-to-end tests included (scripts/test-suite.sh: two halves at once), detour diagnose on the real log lines (check-logs, at least 95 % right), a fixed sample of the real configurations (check-real's, 30 per server, one at a time: each runs a real server and its fake upstreams against timeouts), then the installed binary outside the repository (`make test-deb` tests the Debian package); first, the versions of the servers and libraries the tests run against
test: deps test-deps lint
	@scripts/test-environment.sh $(BUILD_PACKAGES) $(TEST_PACKAGES) $(REAL_PACKAGES) time
	$(SWIFT) build --build-tests
	scripts/test-suite.sh
	DETOUR=.build/debug/detour scripts/check-logs.py --at-least 95
	CHECK_REAL_JOBS=1 DETOUR=.build/debug/detour scripts/check-real.py --sample 30
	scripts/test-install.sh

## test-deb: the Debian package as a user gets it: built twice and compared, lintian, installed with apt, used and removed (needs root). Apart from `make test`: its manual pages come from the argument parser's plugin, whose build of detour does not share the test build's and would rebuild it
test-deb: deps release
	@scripts/install-packages.sh dpkg-dev lintian man-db
	scripts/test-deb.sh

## lint: the code as `swift format` (configured in .swift-format) would write it
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Plugins Package.swift

## format: rewrite the code as `swift format` would
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Plugins Package.swift

## install: a release detour with the Swift runtime linked in, as $(PREFIX)/bin/detour (at run time it needs only libcmark)
install: release
	install -D -m 755 .build/static/release/detour "$(DESTDIR)$(PREFIX)/bin/detour"

## deb: dist/detour_<version>_<arch>.deb: the release binary with the Swift runtime linked in, a manual page per command, bash, zsh and fish completions; reproducible (SOURCE_DATE_EPOCH, default the last commit's time)
deb: deps release
	@scripts/install-packages.sh dpkg-dev
	scripts/make-deb.sh

## check-oracle: generate N configurations for each of nginx, Caddy, HAProxy, Apache and Varnish from SEED (default: the time), run each on the real server with a misbehaving upstream, probe every site and compare with detour check; ends with one line of the counts (disagreements in full in .build/oracle-disagreements-<server>.txt)
N ?= 100
SEED ?= $(shell date +%s)
check-oracle: deps test-deps
	$(SWIFT) build --build-tests
	@rm -f .build/oracle-summary.txt && touch .build/oracle-summary.txt
	@status=0; ORACLE_N=$(N) ORACLE_SEED=$(SEED) ORACLE_SUMMARY=$(CURDIR)/.build/oracle-summary.txt ORACLE_DISAGREEMENTS=$(CURDIR)/.build/oracle-disagreements \
		CI=true $(SWIFT) test --skip-build --filter OracleTests >.build/oracle.log 2>&1 || status=$$?; \
		echo "seed $(SEED): $$(paste -sd ';' .build/oracle-summary.txt | sed 's/;/; /g')"; exit $$status

## bench: build a knowledge base of $(ARTICLES) articles shaped like the shipped ones, then one of proxy vocabulary: wall time, peak memory and the time of each phase, beside Hugo on the same Markdown (above 10,000 articles, beside 10,000 instead: how the build scales)
bench: deps release synth
	@scripts/install-packages.sh time hugo
	scripts/bench.sh $(ARTICLES)

## bench-incremental: a first build of a synthetic knowledge base of $(ARTICLES) articles, then a random sequence of $(EDITS) edits (text, paragraphs, headings, front matter, articles added, removed or renamed, a translation, a code, a template), each built at once or after a pause: each build's wall time, then per kind of edit the median and the worst (SEED picks the sequence)
bench-incremental: deps release synth
	python3 scripts/bench-incremental.py $(ARTICLES) $(EDITS)

## bench-check: time `detour check` on generated configurations: nginx 5,000 server blocks, caddy 1,000 and 5,000 site blocks, haproxy 5,000 backends (Host-routed, and default_backend only) beside haproxy -c, apache 5,000 virtual hosts beside apache2 -t
bench-check: deps release
	@scripts/install-packages.sh time bc haproxy apache2
	scripts/bench-check.sh 5000
	scripts/bench-check-caddy.sh
	scripts/bench-check-haproxy.sh 5000
	scripts/bench-check-apache.sh 5000

## bench-diagnose: time `detour diagnose` on a generated 2-million-line mixed error log beside grep -E -c with every pattern
bench-diagnose: deps release
	@scripts/install-packages.sh time bc
	scripts/bench-diagnose.sh $(LINES)

## markdown-differential: every real document of the cmark-gfm differential (RealDocuments/manifest.tsv, fetched from PyPI by scripts/markdown-corpus.py), rendered by detour and by cmark-gfm with raw HTML off and on; differences in .build/markdown-corpus/differences.txt. make test compares the CI sample
markdown-differential: deps
	@scripts/install-packages.sh cmark-gfm
	scripts/markdown-corpus.py --all
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter RealDocumentDifferentialTests

## check-logs: detour diagnose on the real log lines of Tests/RealLogs (each quoted from a public thread, with the cause the thread found): right/total per server, for the tuned and the held-out half (misses in .build/check-logs/misses.txt)
check-logs: deps
	$(SWIFT) build --product detour
	DETOUR=.build/debug/detour scripts/check-logs.py

## check-real: detour check and detour verify on every real configuration of Tests/RealConfigs (MANIFEST.tsv names each one's source and licence), compared rule by rule: per server, agreement and the disagreements by rule and kind (in full in .build/check-real/<server>.txt)
check-real: deps test-deps release
	@test -d public/errors || .build/static/release/detour build
	DETOUR=.build/static/release/detour scripts/check-real.py

## bench-search: search figures in Chromium (requests, bytes, time to first result) on the shipped and a synthetic knowledge base
bench-search: deps test-deps release synth
	scripts/bench-search.sh $(ARTICLES)

## bench-verify: detour verify on a generated nginx configuration, Caddyfile and haproxy.cfg of $(SITES) sites each (proxied routes and pages in each), beside the target of a minute for 50
SITES ?= 50
bench-verify: deps test-deps release
	scripts/bench-verify.sh $(SITES)

## bench-serve: detour serve on a synthetic knowledge base of $(ARTICLES) articles: ready time, one saved article to served
bench-serve: deps release synth
	@scripts/install-packages.sh curl
	scripts/bench-serve.sh $(ARTICLES)

## bench-backend: detour backend beside nginx serving the same built pages, under wrk at 64 connections: requests per second, p99 latency and the service's peak memory, with their ratios to nginx's
bench-backend: deps release backend-release
	@scripts/install-packages.sh wrk nginx bc
	scripts/bench-backend.sh

# The benchmarks time the binary that ships: the one `make install` installs, its Swift runtime
# linked in (half the start-up time of the dynamically linked one: 3.9 ms against 7.7 ms).
# SwiftPM 6.3 can crash (a segmentation fault in swift-package) while it creates the packages'
# working copies in a fresh scratch path; a second call picks up where it stopped.
release: deps
	$(SWIFT) build -c release --product detour --static-swift-stdlib --scratch-path .build/static \
		|| $(SWIFT) build -c release --product detour --static-swift-stdlib --scratch-path .build/static

# detour-backend: the page service alone, the binary the container image runs (Containerfile).
backend-release: deps
	$(SWIFT) build -c release --product detour-backend --static-swift-stdlib --scratch-path .build/static

# detour-synth writes the benchmarks' synthetic knowledge bases. Apart from `release`: SwiftPM
# builds one product per call, and a call for the other product runs the build plugins and
# recompiles what they feed, so `make release` twice in a row would rebuild half of detour.
synth: deps
	$(SWIFT) build -c release --product detour-synth --static-swift-stdlib --scratch-path .build/static

deps:
	@scripts/install-packages.sh $(BUILD_PACKAGES)

# gunicorn 23 from PyPI beside Debian's 20.1: the knowledge base quotes the wording of both.
# Python's h2 for the HTTP/2 peers that reset streams in the Caddy reproductions.
GUNICORN_23 = .build-python/gunicorn-23
H2 = .build-python/h2
SLUGGER = .build-python/github-slugger
# jsonschema, for the tests that validate detour's SARIF against SARIF 2.1.0's schema.
JSONSCHEMA = .build-python/jsonschema
PIP_INSTALL = python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore
test-deps:
	@scripts/install-packages.sh $(TEST_PACKAGES) $(REAL_PACKAGES) time
	@test -d $(GUNICORN_23)/gunicorn || $(PIP_INSTALL) --target $(GUNICORN_23) gunicorn==23.0.0
	@test -d $(H2)/h2 || $(PIP_INSTALL) --target $(H2) h2==4.1.0
	@test -d $(SLUGGER)/github_slugger || $(PIP_INSTALL) --target $(SLUGGER) github-slugger==0.0.3
	@test -d $(JSONSCHEMA)/jsonschema || $(PIP_INSTALL) --target $(JSONSCHEMA) jsonschema==4.17.3
	@scripts/markdown-corpus.py

clean:
	rm -rf .build dist public/* .public.detour-build-*
