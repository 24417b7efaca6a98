#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few libcurl names used, with the values of curl.h (a stable ABI since libcurl 7).
typedef void CURL;
struct curl_slist;
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_POSTFIELDS = 10015,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_CUSTOMREQUEST = 10036, OPT_CAINFO = 10065,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079,
    OPT_POSTFIELDSIZE = 60, OPT_SSL_VERIFYPEER = 64, OPT_HTTPGET = 80, OPT_SSL_VERIFYHOST = 81,
    OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_PROTOCOLS = 181, OPT_MAXFILESIZE_LARGE = 30117,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_DEFAULT = 3, CURLE_FILESIZE_EXCEEDED = 63,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

// macOS ships libcurl in the OS under its own name.
#ifdef __APPLE__
#define LIBCURL "libcurl.4.dylib"
#else
#define LIBCURL "libcurl.so.4"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load(void) {
    void *library = dlopen(LIBCURL, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "remote mode needs the system's libcurl (" LIBCURL "): %s", dlerror());
        return;
    }
#define SYMBOL(field, name) \
    if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, LIBCURL " lacks %s", name); \
        return; \
    }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_reset, "curl_easy_reset")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    if (curl.global_init(GLOBAL_DEFAULT) != 0) snprintf(load_error, sizeof load_error, "libcurl failed to initialise");
}

const char *ab_curl_load(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

void *ab_curl_new(void) { return ab_curl_load() ? NULL : curl.easy_init(); }

void ab_curl_free(void *handle) {
    if (handle) curl.easy_cleanup(handle);
}

typedef struct {
    uint8_t *bytes;
    size_t length, capacity;
    int failed;
    // Shared by the body and the header lines: what the whole reply may hold, and what it holds.
    size_t *received;
    size_t limit;
    int *too_large;
} buffer;

static size_t append(char *data, size_t size, size_t count, void *target) {
    buffer *into = target;
    size_t more = size * count;
    // Past the limit the transfer ends here, before another byte is kept: a tenant's reply is
    // never held whole when it is larger than the daemon agreed to read.
    if (more > into->limit - *into->received) {
        *into->too_large = 1;
        return 0; // libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    if (into->length + more + 1 > into->capacity) {
        size_t capacity = into->capacity ? into->capacity : 4096;
        while (capacity < into->length + more + 1) capacity *= 2;
        uint8_t *grown = realloc(into->bytes, capacity);
        if (!grown) {
            into->failed = 1;
            return 0;
        }
        into->bytes = grown;
        into->capacity = capacity;
    }
    memcpy(into->bytes + into->length, data, more);
    into->length += more;
    *into->received += more;
    return more;
}

void ab_curl_perform(void *handle, const ab_curl_request *request, ab_curl_response *response) {
    memset(response, 0, sizeof *response);
    size_t received = 0;
    buffer body = {0}, headers = {0};
    body.received = headers.received = &received;
    body.limit = headers.limit = request->max_reply_bytes;
    body.too_large = headers.too_large = &response->too_large;
    struct curl_slist *list = NULL;
    // reset drops the previous exchange's options but keeps the connection cache.
    curl.easy_reset(handle);
    curl.easy_setopt(handle, OPT_URL, request->url);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    // Timeouts by polling, not SIGALRM: signals are the daemon's (its signal source).
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    // The whole exchange: resolving, connecting, TLS, sending and every byte of the reply, so a
    // tenant that drips its answer is cut at the deadline like one that never answers.
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, request->timeout_ms);
    // A Content-Length past the limit ends the transfer before its body starts (the write
    // callback's count catches a reply that does not announce its size).
    curl.easy_setopt(handle, OPT_MAXFILESIZE_LARGE, (int64_t)request->max_reply_bytes);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, response->error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, append);
    curl.easy_setopt(handle, OPT_WRITEDATA, &body);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, append);
    curl.easy_setopt(handle, OPT_HEADERDATA, &headers);
    if (!request->verify) {
        curl.easy_setopt(handle, OPT_SSL_VERIFYPEER, 0L);
        curl.easy_setopt(handle, OPT_SSL_VERIFYHOST, 0L);
    } else if (request->ca_file) {
        curl.easy_setopt(handle, OPT_CAINFO, request->ca_file);
    }
    if (request->body) {
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE, (long)request->body_length);
        curl.easy_setopt(handle, OPT_POSTFIELDS, request->body);
    } else {
        curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    }
    if (strcmp(request->method, request->body ? "POST" : "GET") != 0) curl.easy_setopt(handle, OPT_CUSTOMREQUEST, request->method);
    for (size_t i = 0; i < request->header_count; i++) list = curl.slist_append(list, request->headers[i]);
    // No "Expect: 100-continue" round trip before a larger body: AM answers the POST at once.
    list = curl.slist_append(list, "Expect:");
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);

    response->code = curl.easy_perform(handle);
    if (response->code == 0) curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &response->status);
    if (response->code == CURLE_FILESIZE_EXCEEDED) response->too_large = 1;
    if (body.failed || headers.failed) snprintf(response->error, sizeof response->error, "out of memory reading the answer");
    curl.slist_free_all(list);
    // The options point at this call's buffers: drop them before returning.
    curl.easy_reset(handle);
    response->body = body.bytes;
    response->body_length = body.length;
    response->headers = headers.bytes;
    response->headers_length = headers.length;
}

void ab_curl_response_free(ab_curl_response *response) {
    free(response->body);
    free(response->headers);
    response->body = response->headers = NULL;
}
