#ifndef AUTHBRIDGE_CCURL_H
#define AUTHBRIDGE_CCURL_H

#include <stddef.h>
#include <stdint.h>

/// The system's libcurl (libcurl.so.4), loaded at run time, behind a small non-variadic surface
/// Swift can call: curl_easy_setopt is variadic, and no curl headers need to be installed.

/// Loads libcurl once. NULL when it is ready, else a message saying why it is not.
const char *ab_curl_load(void);

/// One easy handle; reusing it keeps connections alive between exchanges. NULL if libcurl fails.
void *ab_curl_new(void);
void ab_curl_free(void *handle);

typedef struct {
    const char *method;        // "GET", "POST"
    const char *url;
    const char *const *headers; // "Name: value" lines
    size_t header_count;
    const uint8_t *body;        // NULL: no body
    size_t body_length;
    long timeout_ms;            // the whole exchange, first byte sent to last byte read
    size_t max_reply_bytes;     // the reply's header lines and body together; past it the transfer ends
    int verify;                 // 0: --insecure, no peer or host verification
    const char *ca_file;        // NULL: the system trust store
} ab_curl_request;

typedef struct {
    int code;                   // CURLcode: 0 when an HTTP answer came back
    long status;
    uint8_t *body;
    size_t body_length;
    uint8_t *headers;           // the raw header lines of every response received
    size_t headers_length;
    char error[256];            // libcurl's own words when code != 0
    int too_large;              // 1: the reply passed max_reply_bytes and was dropped (code != 0)
} ab_curl_response;

/// Runs one exchange; redirects are never followed. Free the response with ab_curl_response_free.
void ab_curl_perform(void *handle, const ab_curl_request *request, ab_curl_response *response);
void ab_curl_response_free(ab_curl_response *response);

/// CURLcode values the transport names in its messages.
enum {
    AB_CURLE_UNSUPPORTED_PROTOCOL = 1,
    AB_CURLE_COULDNT_RESOLVE_HOST = 6,
    AB_CURLE_COULDNT_CONNECT = 7,
    AB_CURLE_OPERATION_TIMEDOUT = 28,
    AB_CURLE_SSL_CONNECT_ERROR = 35,
    AB_CURLE_GOT_NOTHING = 52,
    AB_CURLE_SEND_ERROR = 55,
    AB_CURLE_RECV_ERROR = 56,
    AB_CURLE_PEER_FAILED_VERIFICATION = 60,
    AB_CURLE_SSL_CACERT_BADFILE = 77,
};

#endif
