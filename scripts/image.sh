#!/usr/bin/env bash
# Builds the Lorekeeper container image as a tarball without a Docker engine or a registry:
#  1. assembles a base image from Debian packages (glibc, libstdc++ for ONNX Runtime and the DJL
#     tokenizer, coreutils for the preStop `sleep`) and a Java runtime jlink'd from the local JDK
#     (21 or newer), written as a docker-archive tarball;
#  2. runs Jib (jib-maven-plugin, `jib:buildTar`) on top of it: dependencies, resources and classes
#     as separate layers, non-root user 10001, port 8080.
# Output: target/image/lorekeeper-<version>.tar (loadable by `docker load`, `podman load`,
# `skopeo copy docker-archive:...`, `crane push`). See README "Container image".
# Options (environment): IMAGE (name:tag, default lorekeeper:<version>), DEBIAN_PACKAGES (extra).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/java-env.sh

started=$(date +%s)
out=target/image
base_dir=$out/base
rootfs=$base_dir/rootfs
mkdir -p "$out/debs"
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | sed -n 2p)
version=${version%-SNAPSHOT}
image=${IMAGE:-lorekeeper:$version}

# --- 1. base image ------------------------------------------------------------------------------
packages="libc6 libstdc++6 zlib1g coreutils ${DEBIAN_PACKAGES:-}"
if ! apt-cache show libc6 >/dev/null 2>&1; then apt-get update -qq; fi
# the packages and everything they depend on, without maintainer scripts' own tools
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances $packages \
  | grep -v '^[ <]' | sort -u | grep -vxE 'debconf|cdebconf|dpkg|install-info|perl-base|tar' || true)
echo "[image] Debian packages: $(echo $closure | wc -w)"
(cd "$out/debs" && apt-get download -qq -o APT::Sandbox::User=root $closure)

rm -rf "$rootfs" && mkdir -p "$rootfs"
for deb in "$out"/debs/*.deb; do dpkg-deb -x "$deb" "$rootfs"; done
rm -rf "$rootfs"/usr/share/{doc,man,info,locale,lintian} "$rootfs"/var/lib/dpkg
mkdir -p "$rootfs"/{tmp,etc,app,opt} && chmod 1777 "$rootfs/tmp"
cat > "$rootfs/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/usr/sbin/nologin
lorekeeper:x:10001:10001:Lorekeeper:/app:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
PASSWD
cat > "$rootfs/etc/group" <<'GROUP'
root:x:0:
lorekeeper:x:10001:
nogroup:x:65534:
GROUP
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"

# A Java runtime of the modules Spring Boot, JDBC, ONNX Runtime and JMX need (jlink from the local JDK).
modules=java.base,java.compiler,java.datatransfer,java.desktop,java.instrument,java.logging,java.management,java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.sql.rowset,java.transaction.xa,java.xml,java.xml.crypto,jdk.charsets,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.httpserver,jdk.jfr,jdk.localedata,jdk.management,jdk.management.agent,jdk.management.jfr,jdk.naming.dns,jdk.net,jdk.security.auth,jdk.security.jgss,jdk.unsupported,jdk.zipfs
available=$("$JAVA_HOME/bin/java" --list-modules | sed 's/@.*//' | tr '\n' ',')
modules=$(echo "$modules" | tr ',' '\n' | while read -r m; do case ",$available" in *",$m,"*) echo "$m";; esac; done | paste -sd, -)
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress zip-6 --output "$rootfs/opt/java"
echo "[image] Java runtime: $("$rootfs/opt/java/bin/java" -version 2>&1 | head -1) ($(du -sh "$rootfs/opt/java" | cut -f1))"

python3 - "$base_dir" <<'PY'
import hashlib, io, json, os, sys, tarfile
base = sys.argv[1]
rootfs = os.path.join(base, "rootfs")
layer = os.path.join(base, "layer.tar")
# deterministic: sorted entries, root-owned, fixed mtime (the same inputs give the same digest)
def reset(info):
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    info.mtime = 0
    return info
with tarfile.open(layer, "w", format=tarfile.PAX_FORMAT) as tar:
    for directory, dirs, files in os.walk(rootfs):
        dirs.sort()
        for name in sorted(dirs) + sorted(files):
            path = os.path.join(directory, name)
            tar.add(path, arcname=os.path.relpath(path, rootfs), recursive=False, filter=reset)
digest = hashlib.sha256(open(layer, "rb").read()).hexdigest()
config = {
    "architecture": "amd64", "os": "linux", "created": "1970-01-01T00:00:00Z",
    "config": {"Env": ["PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                       "JAVA_HOME=/opt/java", "LANG=C.UTF-8"], "WorkingDir": "/app"},
    "rootfs": {"type": "layers", "diff_ids": ["sha256:" + digest]},
    "history": [{"created": "1970-01-01T00:00:00Z", "created_by": "scripts/image.sh: Debian packages + jlink runtime"}],
}
config_bytes = json.dumps(config, sort_keys=True).encode()
config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
manifest = [{"Config": config_name, "RepoTags": ["lorekeeper-base:local"], "Layers": [digest + "/layer.tar"]}]
with tarfile.open(os.path.join(base, "base.tar"), "w") as out:
    for name, data in [(config_name, config_bytes), ("manifest.json", json.dumps(manifest).encode())]:
        info = tarfile.TarInfo(name); info.size = len(data); out.addfile(info, io.BytesIO(data))
    out.add(layer, arcname=digest + "/layer.tar")
os.remove(layer)
print("[image] base image:", os.path.join(base, "base.tar"), "layer sha256:" + digest[:12])
PY

# --- 2. the application on top, with Jib ------------------------------------------------------------
./mvnw -B -ntp -q -DskipTests -pl service -am compile jib:buildTar \
  -Djib.from.image="tar://$PWD/$base_dir/base.tar" \
  -Djib.to.image="$image" \
  -Djib.outputPaths.tar="$PWD/$out/lorekeeper-$version.tar"
ls -l "$out/lorekeeper-$version.tar"
echo "[image] $image -> $out/lorekeeper-$version.tar in $(( $(date +%s) - started )) s"
