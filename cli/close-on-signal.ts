// Graceful stop for long-running commands: on SIGINT/SIGTERM, close (finishing in-flight
// requests) once, then exit 0, or 1 if closing failed.
export function closeOnSignal(what: string, close: () => Promise<unknown>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`received ${signal}: closing ${what}`);
    close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}
