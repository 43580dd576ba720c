// Error shapes: v2 RFC 9457 problems → the v1 `{"message": …}` body, and the fields code reads.

export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  errors?: string[];
}

/** v1 error bodies seen in the wild: `{message}` and `{error, status}`. The gateway answers `{message}`. */
export const v1ErrorFields = ["message", "error"] as const;

/**
 * Where v1 code reading an error field should look in a v2 problem. Both v1 fields carried the
 * occurrence's reason ("pod not found"): v2 puts it in `detail`; `title` is only the problem
 * type's summary ("Not Found"), so `message ?? error` reads one field, `detail`.
 */
export const errorFieldMap: Record<(typeof v1ErrorFields)[number] | "status", string> = {
  message: "detail",
  error: "detail",
  status: "status",
};

export function isProblem(body: unknown): body is Problem {
  return !!body && typeof body === "object" && ("detail" in body || "title" in body);
}

/** One readable v1 message from a problem: detail, then each validation error. */
export function problemToV1Message(problem: Problem, fallbackStatus: number): { message: string } {
  const head = problem.detail || problem.title || `upstream error ${problem.status ?? fallbackStatus}`;
  const errors = Array.isArray(problem.errors) ? problem.errors.filter((e) => typeof e === "string") : [];
  return { message: errors.length ? `${head}: ${errors.join("; ")}` : head };
}
