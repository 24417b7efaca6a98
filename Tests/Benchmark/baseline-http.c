/* The HTTP floor for `make bench`: the cheapest loopback server that answers keep-alive GETs.
 * One thread, poll(2) over every connection; each request head (ended by a blank line) gets a
 * fixed 200 JSON answer, all of one read's answers written at once, as authbridge does. It prints
 * its port on stdout, then serves until killed. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX 64
static const char answer[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: 27\r\n\r\n"
    "{\"cookieName\":\"floor-0001\"}";

int main(void) {
    int listener = socket(AF_INET, SOCK_STREAM, 0), on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 128)) return 1;
    getsockname(listener, (struct sockaddr *)&address, &length);
    printf("port %d\n", ntohs(address.sin_port));
    fflush(stdout);
    struct pollfd fds[MAX + 1] = {{.fd = listener, .events = POLLIN}};
    int matched[MAX + 1] = {0}; /* how much of "\r\n\r\n" the previous read ended with */
    int count = 1;
    static char in[1 << 16], out[1 << 20];
    for (;;) {
        if (poll(fds, count, -1) < 0) continue;
        if (fds[0].revents & POLLIN) {
            int fd = accept(listener, NULL, NULL);
            if (fd >= 0 && count <= MAX) {
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
                fds[count] = (struct pollfd){.fd = fd, .events = POLLIN};
                matched[count++] = 0;
            } else if (fd >= 0) close(fd);
        }
        for (int i = 1; i < count; i++) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, in, sizeof in);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i] = fds[--count];
                matched[i] = matched[count];
                i--;
                continue;
            }
            size_t used = 0;
            for (ssize_t k = 0; k < n; k++) {
                char want = "\r\n\r\n"[matched[i]];
                matched[i] = in[k] == want ? matched[i] + 1 : (in[k] == '\r' ? 1 : 0);
                if (matched[i] == 4) {
                    matched[i] = 0;
                    if (used + sizeof answer > sizeof out) { write(fds[i].fd, out, used); used = 0; }
                    memcpy(out + used, answer, sizeof answer - 1);
                    used += sizeof answer - 1;
                }
            }
            for (size_t off = 0; off < used;) { ssize_t w = write(fds[i].fd, out + off, used - off); if (w <= 0) break; off += w; }
        }
    }
}
