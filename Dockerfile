# The container image of a release (.goreleaser.yaml, dockers_v2): the
# binary goreleaser built for the platform, in a distroless image that has
# CA certificates (check --url) and runs as an unprivileged user. Mount
# the files to lint at /work:
#
#   docker run --rm -v "$PWD:/work" ghcr.io/mcpfit/mcplint lint tools.json
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/mcplint /usr/bin/mcplint
WORKDIR /work
ENTRYPOINT ["/usr/bin/mcplint"]
