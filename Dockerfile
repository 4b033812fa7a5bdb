# One image for the API and the three MCP servers; docker-compose.yml picks the command.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    FASTMCP_SHOW_CLI_BANNER=false \
    FASTMCP_CHECK_FOR_UPDATES=off \
    ANONYMIZED_TELEMETRY=False \
    MARSA_DATA_DIR=/data

WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir "uv==0.13.9" \
 && uv pip install --system --no-cache -r requirements.lock
COPY pyproject.toml README.md ./
COPY backend ./backend
COPY marsa_common ./marsa_common
COPY mcp_servers ./mcp_servers
COPY frontend ./frontend
COPY docs ./docs
RUN uv pip install --system --no-cache --no-deps -e .

VOLUME ["/data"]
EXPOSE 8000 8101 8102 8103
CMD ["marsa", "serve", "--host", "0.0.0.0", "--port", "8000"]
