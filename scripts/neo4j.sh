#!/usr/bin/env bash
# A real Neo4j server without Docker: Neo4j Community from Maven Central, an embedded DBMS with
# its Bolt connector on 127.0.0.1 (scripts/neo4j-server). Needs Java 17+ and Maven.
#
#   bash scripts/neo4j.sh start [--data DIR] [--port N] [--user U] [--password P] [--no-auth]
#                               [--heap SIZE] [--page-cache SIZE] [--version 5.26.x] [--java PATH]
#   bash scripts/neo4j.sh status
#   bash scripts/neo4j.sh stop
#
# `start` returns once Bolt accepts a session, leaving the server in the background, and prints
#   NEO4J_URI=bolt://127.0.0.1:PORT
#   NEO4J_USER=neo4j
#   NEO4J_PASSWORD=...
# one per line, so `eval "$(bash scripts/neo4j.sh start)"` sets them. The data live in --data
# (a temporary folder, removed by `stop`, when not given); the port is a free one unless --port;
# the password is random unless --password. The server's files (pid, ready lines, log) are kept
# in $TGRAPH_NEO4J_STATE (default .neo4j/ in the repository), so several servers can run at once
# with different state folders. The first start downloads Neo4j into the Maven cache (~/.m2);
# later starts reuse it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
project="$here/neo4j-server"
state="${TGRAPH_NEO4J_STATE:-$here/../.neo4j}"
say() { echo "neo4j: $*" >&2; }
fail() { say "$*"; exit 1; }

running() { [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null; }

start() {
    local data="" port=0 user=neo4j password="" auth=1 heap=1g page_cache=256m
    local version="" java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
    while [ $# -gt 0 ]; do
        case "$1" in
            --data) data="$2"; shift 2 ;;
            --port) port="$2"; shift 2 ;;
            --user) user="$2"; shift 2 ;;
            --password) password="$2"; shift 2 ;;
            --no-auth) auth=0; shift ;;
            --heap) heap="$2"; shift 2 ;;
            --page-cache) page_cache="$2"; shift 2 ;;
            --version) version="$2"; shift 2 ;;
            --java) java="$2"; shift 2 ;;
            *) fail "start: unknown option $1 (see the top of scripts/neo4j.sh)" ;;
        esac
    done
    if running && [ -f "$state/ready" ]; then
        say "already running (pid $(cat "$state/pid")); its connection:"
        cat "$state/ready"
        return 0
    fi
    command -v "$java" >/dev/null || fail "Java 17 or newer is needed (java not found; set JAVA_HOME or --java)"
    command -v mvn >/dev/null || fail "Maven is needed to fetch Neo4j from Maven Central (mvn not found)"
    mkdir -p "$state"
    rm -f "$state/ready" "$state/pid" "$state/temporary-data"

    # Compile the launcher and list Neo4j's jars, once per version (a second start builds nothing).
    [ -n "$version" ] || version="$(sed -n 's:.*<neo4j.version>\(.*\)</neo4j.version>.*:\1:p' "$project/pom.xml")"
    [[ "$version" =~ ^[0-9][0-9A-Za-z.-]*$ ]] || fail "--version: a Neo4j version like 5.26.30, not $version"
    local build="$project/target/$version"
    if [ ! -s "$build/classpath.txt" ] || [ "$project/src/main/java/temporalgraph/Neo4jServer.java" -nt "$build/classpath.txt" ] \
        || [ "$project/pom.xml" -nt "$build/classpath.txt" ]; then
        say "fetching Neo4j $version from Maven Central (into ~/.m2, once) and compiling the launcher"
        mvn -q -B -f "$project/pom.xml" "-Dneo4j.version=$version" \
            compile dependency:build-classpath "-Dmdep.outputFile=$build/classpath.txt" >"$state/build.log" 2>&1 \
            || { cat "$state/build.log" >&2; rm -f "$build/classpath.txt"; fail "the Maven build failed (above)"; }
    fi

    if [ -z "$data" ]; then
        data="$(mktemp -d "${TMPDIR:-/tmp}/tgraph-neo4j.XXXXXX")"
        echo "$data" >"$state/temporary-data"
    fi
    local args=(--data "$data" --port "$port" --page-cache "$page_cache" --ready-file "$state/ready")
    if [ "$auth" = 1 ]; then
        args+=(--user "$user")
        [ -n "$password" ] && args+=(--password "$password")
    else
        args+=(--no-auth)
    fi
    # setsid: the server outlives this script and the shell that ran it; stop (or SIGTERM) ends it.
    setsid "$java" "-Xmx$heap" -XX:+ExitOnOutOfMemoryError -cp "$build/classes:$(cat "$build/classpath.txt")" \
        temporalgraph.Neo4jServer "${args[@]}" </dev/null >"$state/log" 2>&1 &
    echo $! >"$state/pid"

    local waited=0
    until [ -s "$state/ready" ]; do
        if ! running; then
            tail -n 30 "$state/log" >&2
            stop_quietly
            fail "the server exited before it was ready (log above; whole log: $state/log)"
        fi
        [ "$waited" -ge 600 ] && { stop_quietly; fail "not ready after 300 s (log: $state/log)"; }
        sleep 0.5
        waited=$((waited + 1))
    done
    cat "$state/ready"
}

stop_quietly() {
    if running; then
        local pid waited=0
        pid="$(cat "$state/pid")"
        kill -TERM "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 120 ]; do sleep 0.5; waited=$((waited + 1)); done
        if kill -0 "$pid" 2>/dev/null; then
            say "no clean shutdown within 60 s; killing pid $pid"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    if [ -f "$state/temporary-data" ]; then
        rm -rf "$(cat "$state/temporary-data")"
    fi
    rm -f "$state/pid" "$state/ready" "$state/temporary-data"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop)
        if running; then say "stopping pid $(cat "$state/pid")"; else say "not running"; fi
        stop_quietly ;;
    status)
        if running && [ -f "$state/ready" ]; then
            say "running (pid $(cat "$state/pid"))"; cat "$state/ready"
        elif running; then
            say "starting (pid $(cat "$state/pid"))"; exit 3
        else
            say "not running"; exit 3
        fi ;;
    *) fail "usage: bash scripts/neo4j.sh start|stop|status (options: see the top of the script)" ;;
esac
