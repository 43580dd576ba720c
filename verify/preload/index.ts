// The preload `v2-bridge verify` puts into the client's Node processes (NODE_OPTIONS --import):
// requests for the API hosts go to the local gateway (v1) and sandbox (v2), each recorded with
// the client's call site; requests for any other host are untouched. Without verify's
// environment it does nothing. Only Node processes are reached: non-Node clients are out of scope.
import { EVENTS_ENV, ROUTES_ENV } from "./protocol.ts";
import { writeEvent } from "./events.ts";
import { installNodeHttpRedirect } from "./node-http-redirect.ts";
import { parseRoutes } from "./routes.ts";
import { installUndiciRedirect } from "./undici-redirect.ts";

const routes = parseRoutes(process.env[ROUTES_ENV]);
const eventsFile = process.env[EVENTS_ENV];
if (routes && eventsFile) {
  writeEvent(eventsFile, { kind: "process", pid: process.pid, ...(process.argv[1] ? { script: process.argv[1] } : {}) });
  installUndiciRedirect(routes, eventsFile);
  installNodeHttpRedirect(routes, eventsFile);
}
