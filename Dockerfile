FROM python:3.11-slim
# tini runs as PID 1: it passes the stop signal on to meeple and reaps any orphaned process
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
# the server runs as this user; it owns only its data (before VOLUME, so a new volume gets the owner)
RUN groupadd --system --gid 10001 meeple \
    && useradd --system --uid 10001 --gid meeple --no-create-home meeple \
    && mkdir /data && chown meeple:meeple /data
WORKDIR /app
COPY pyproject.toml README.md openapi.yaml ./
COPY domain domain
COPY events events
COPY players players
COPY runtime runtime
COPY application application
COPY service service
COPY workers workers
COPY cli cli
# `python -m workers` imports from here, which the server cannot write: compile it now
RUN pip install --no-cache-dir . && python -m compileall -q .
ENV MEEPLE_DATA_DIR=/data
VOLUME /data
EXPOSE 8000
USER meeple
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/v1/health', timeout=4)"]
# meeple stops the API, the worker and the embedded store within 10 s of it
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["meeple", "serve", "--host", "0.0.0.0", "--port", "8000"]
