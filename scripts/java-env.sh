# Sourced by the other scripts: points JAVA_HOME at a JDK that can build and run Lorekeeper
# (release 21 or newer). Keeps a suitable JAVA_HOME; otherwise takes the newest JDK on the
# machine, so that a default Java 17 on PATH does not break the build.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}' | cut -d. -f1; }

if [ -z "${JAVA_HOME:-}" ] || [ ! -x "$JAVA_HOME/bin/java" ] || [ "$(java_major "$JAVA_HOME")" -lt 21 ]; then
  best=""; best_major=0
  for candidate in /usr/lib/jvm/* /opt/java/* /usr/local/*jdk* "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -x "$candidate/bin/javac" ] || continue
    major=$(java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then best=$candidate; best_major=$major; fi
  done
  if [ -z "$best" ]; then
    echo "Lorekeeper needs a JDK 21 or newer; install one (e.g. apt-get install openjdk-21-jdk) or set JAVA_HOME" >&2
    exit 1
  fi
  export JAVA_HOME=$best
fi
export PATH="$JAVA_HOME/bin:$PATH"
