/* The floor for `make bench`: the cheapest process that speaks the same NDJSON. It reads lines,
 * answers each with a fixed result carrying the request's id, and writes once per read, as
 * authbridge does. What it costs is what pipes and a process cost anyway.
 *
 *   baseline [HELLO_RESULT_FILE]
 *
 * Given a file, `daemon.hello` is answered with its bytes as the result (the bench passes
 * authbridge's own hello result), so the host parses a reply of the same size from both. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char in[1 << 16], out[1 << 18], hello[1 << 14];

int main(int argc, char **argv) {
    size_t kept = 0, helloLength = 0;
    if (argc > 1) {
        int fd = open(argv[1], O_RDONLY);
        if (fd < 0) return 2;
        ssize_t n;
        while ((n = read(fd, hello + helloLength, sizeof hello - helloLength)) > 0) helloLength += (size_t)n;
        close(fd);
        while (helloLength && (hello[helloLength - 1] == '\n' || hello[helloLength - 1] == ' ')) helloLength--;
    }
    for (;;) {
        ssize_t n = read(0, in + kept, sizeof in - kept);
        if (n <= 0) return 0;
        size_t length = kept + (size_t)n, start = 0, used = 0;
        for (size_t i = 0; i < length; i++) {
            if (in[i] != '\n') continue;
            /* the id: the value after "id": up to the next , or } */
            char *line = in + start, *id = NULL, *end = NULL;
            in[i] = 0;
            id = strstr(line, "\"id\":");
            if (id) {
                id += 5;
                end = id;
                while (*end && *end != ',' && *end != '}') end++;
            }
            int isHello = helloLength && strstr(line, "\"method\":\"daemon.hello\"") != NULL;
            if (used + 128 + helloLength + (id ? end - id : 0) > sizeof out) { write(1, out, used); used = 0; }
            memcpy(out + used, "{\"jsonrpc\":\"2.0\",\"id\":", 22); used += 22;
            if (id) { memcpy(out + used, id, end - id); used += end - id; } else { memcpy(out + used, "null", 4); used += 4; }
            if (isHello) {
                memcpy(out + used, ",\"result\":", 10); used += 10;
                memcpy(out + used, hello, helloLength); used += helloLength;
                memcpy(out + used, "}\n", 2); used += 2;
            } else {
                memcpy(out + used, ",\"result\":\"ok\"}\n", 16); used += 16;
            }
            start = i + 1;
        }
        if (used) {
            size_t off = 0;
            while (off < used) { ssize_t w = write(1, out + off, used - off); if (w <= 0) return 0; off += w; }
        }
        kept = length - start;
        memmove(in, in + start, kept);
    }
}
