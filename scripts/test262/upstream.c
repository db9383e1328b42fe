/*
 * Upstream QuickJS-ng beside our runtime in scripts/test262.mjs: runs one test262 program
 * per line of stdin the way run() runs a program (a strict global script that is the body
 * of an async function, `(async () => {` on line 1), in a fresh runtime and context, with
 * `console.log`. Built by the script from the unmodified rquickjs-sys sources in the cargo
 * registry (none of vendor/'s changes), so the two columns differ only by what our side
 * adds: the TypeScript transform, the wrapper handling, our globals.
 *
 * stdin: one path per line. stdout: one line per path, `ok`, or `fail <text>` where text is
 * the thrown value's `String()` (its first line) or `log <line>` entries, JSON-free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "quickjs.h"

static char logbuf[4096];
static size_t loglen;
static struct timespec deadline;

static JSValue js_log(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    for (int i = 0; i < argc; i++) {
        const char *s = JS_ToCString(ctx, argv[i]);
        if (!s)
            return JS_EXCEPTION;
        size_t n = strlen(s);
        if (loglen + n + 2 < sizeof(logbuf)) {
            if (i)
                logbuf[loglen++] = ' ';
            memcpy(logbuf + loglen, s, n);
            loglen += n;
        }
        JS_FreeCString(ctx, s);
    }
    if (loglen + 2 < sizeof(logbuf))
        logbuf[loglen++] = '\n';
    logbuf[loglen] = 0;
    return JS_UNDEFINED;
}

static int interrupt(JSRuntime *rt, void *opaque)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline.tv_sec ||
           (now.tv_sec == deadline.tv_sec && now.tv_nsec > deadline.tv_nsec);
}

static void print_value(JSContext *ctx, const char *prefix, JSValueConst v)
{
    const char *s = JS_ToCString(ctx, v);
    printf("%s", prefix);
    if (s) {
        for (const char *p = s; *p && *p != '\n'; p++)
            putchar(*p);
        JS_FreeCString(ctx, s);
    } else {
        JSValue e = JS_GetException(ctx);
        JS_FreeValue(ctx, e);
        printf("<unprintable>");
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    if (buf && fread(buf, 1, n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

static void run_one(const char *path)
{
    size_t len;
    char *src = read_file(path, &len);
    if (!src) {
        printf("fail cannot read\n");
        return;
    }
    static const char prefix[] = "(async () => {", suffix[] = "\n})()";
    size_t total = strlen(prefix) + len + strlen(suffix);
    char *code = malloc(total + 1);
    memcpy(code, prefix, strlen(prefix));
    memcpy(code + strlen(prefix), src, len);
    memcpy(code + strlen(prefix) + len, suffix, strlen(suffix) + 1);
    free(src);

    loglen = 0;
    logbuf[0] = 0;
    JSRuntime *rt = JS_NewRuntime();
    JS_SetMemoryLimit(rt, 512 << 20);
    JS_SetMaxStackSize(rt, 4 << 20);
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += 20;
    JS_SetInterruptHandler(rt, interrupt, NULL);
    JSContext *ctx = JS_NewContext(rt);
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue console = JS_NewObject(ctx);
    JS_SetPropertyStr(ctx, console, "log", JS_NewCFunction(ctx, js_log, "log", 1));
    JS_SetPropertyStr(ctx, global, "console", console);
    JS_FreeValue(ctx, global);

    JSValue v = JS_Eval(ctx, code, total, "program.js", JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_STRICT);
    free(code);
    if (JS_IsException(v)) {
        JSValue e = JS_GetException(ctx);
        print_value(ctx, "fail ", e);
        JS_FreeValue(ctx, e);
    } else {
        JSContext *c;
        for (;;) {
            int r = JS_ExecutePendingJob(rt, &c);
            if (r <= 0) {
                if (r < 0) {
                    JSValue e = JS_GetException(c);
                    JS_FreeValue(c, e);
                }
                break;
            }
        }
        JSPromiseStateEnum st = JS_PromiseState(ctx, v);
        if (st == JS_PROMISE_REJECTED) {
            JSValue e = JS_PromiseResult(ctx, v);
            print_value(ctx, "fail ", e);
            JS_FreeValue(ctx, e);
        } else if (st == JS_PROMISE_PENDING) {
            printf("fail pending");
        } else {
            printf("ok");
        }
    }
    /* The log, on the same line: the script reads async tests' completion from it. */
    if (loglen)
        putchar('\x1f');
    for (size_t i = 0; i < loglen; i++)
        putchar(logbuf[i] == '\n' ? '\x1f' : logbuf[i]);
    putchar('\n');
    fflush(stdout);
    JS_FreeValue(ctx, v);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
}

int main(void)
{
    char line[8192];
    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (*line)
            run_one(line);
    }
    return 0;
}
