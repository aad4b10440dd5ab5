FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md openapi.yaml ./
COPY domain domain
COPY events events
COPY players players
COPY service service
COPY workers workers
RUN pip install --no-cache-dir .
ENV MEEPLE_DATA_DIR=/data
VOLUME /data
EXPOSE 8000
CMD ["meeple", "serve", "--host", "0.0.0.0", "--port", "8000"]
