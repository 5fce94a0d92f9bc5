# syntax=docker/dockerfile:1

# ---------------------------------------------------------------------------
# Build stage: compile with the Maven wrapper (the service module and the text and evaluator libraries it uses), then split the Spring Boot jar
# into its layers so that the runtime image caches dependencies separately
# from application classes.
# ---------------------------------------------------------------------------
FROM eclipse-temurin:21-jdk AS build
WORKDIR /workspace

# Build inputs, least volatile first.
COPY mvnw ./
COPY .mvn .mvn
COPY pom.xml ./
COPY text/pom.xml text/
COPY evaluator/pom.xml evaluator/
COPY service/pom.xml service/
COPY text/src text/src
COPY evaluator/src evaluator/src
COPY service/src service/src
COPY service/db service/db

# The cache mount keeps ~/.m2 between builds (BuildKit, the default builder).
RUN --mount=type=cache,target=/root/.m2 \
    chmod +x mvnw && ./mvnw -B -q -DskipTests -pl service -am package

# Spring Boot 4 "tools" jar mode: --layers writes one folder per layer,
# --launcher keeps the exploded launcher layout so that JarLauncher can start it.
# The jar's name follows the pom's version: take whichever one the build wrote (not the .original).
RUN java -Djarmode=tools -jar "$(ls service/target/lorekeeper-*.jar | grep -v '\.original$' | head -n 1)" \
        extract --layers --launcher --destination extracted

# ---------------------------------------------------------------------------
# Runtime stage: JRE only, non-root, layers copied from least to most volatile.
# ---------------------------------------------------------------------------
FROM eclipse-temurin:21-jre

# curl is only used by the HEALTHCHECK below.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 lorekeeper \
    && useradd --system --uid 10001 --gid 10001 --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin lorekeeper

WORKDIR /app
COPY --from=build /workspace/extracted/dependencies/ ./
COPY --from=build /workspace/extracted/spring-boot-loader/ ./
COPY --from=build /workspace/extracted/snapshot-dependencies/ ./
COPY --from=build /workspace/extracted/application/ ./

# The DJL tokenizer used by the in-process embedding model unpacks a native
# library into its cache directory: it must be writable by the runtime user.
ENV DJL_CACHE_DIR=/tmp/djl \
    LOREKEEPER_LOG_FORMAT=ecs \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"

USER 10001:10001
EXPOSE 8080

# Start-up loads the ONNX embedding model and runs Flyway, hence the long start period.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
    CMD curl -fsS -o /dev/null http://localhost:8080/actuator/health/liveness || exit 1

ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
