// The response-branch classifier: which side of a status check a response-body read is on.
import { describe, expect, it } from "vitest";
import { Project, type Node } from "../../codemod/ts-morph.ts";
import { classifyRead, describeRead, isHttpErrorBody } from "../../codemod/engine/response-branch.ts";

const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { allowJs: true } });
let n = 0;

/** The nodes whose text is exactly `text`, outermost first at each position, in source order. */
function nodes(code: string, text: string): Node[] {
  const sf = project.createSourceFile(`case${n++}.ts`, code);
  const out: Node[] = [];
  sf.forEachDescendant((d) => {
    if (d.getText() === text && !out.some((o) => o.getStart() === d.getStart())) out.push(d);
  });
  if (!out.length) throw new Error(`no ${text} in ${code}`);
  return out;
}

/** The side of each read whose text is `text`, in source order. */
const sides = (code: string, text = "await res.json()") => nodes(code, text).map((r) => classifyRead(r));
const fn = (body: string) => `async function f(url: string) {\n  const res = await fetch(url);\n${body}\n}`;

describe("fetch: branches on res.ok", () => {
  it("`!res.ok` block is the error body; after it (the block throws) is the success body", () => {
    const code = fn(`if (!res.ok) { const p = await res.json().catch(() => ({})); throw new Error(p.message); }\n const pods = await res.json(); return pods;`);
    expect(sides(code, "await res.json().catch(() => ({}))")).toEqual(["error"]);
    expect(sides(code)).toEqual(["success"]);
  });

  it("`res.ok === false`, `false == res.ok`, `res.ok !== true`, `!Boolean(res.ok)` are error branches", () => {
    for (const cond of ["res.ok === false", "false == res.ok", "res.ok !== true", "!Boolean(res.ok)", "!(res?.ok)"]) {
      expect(sides(fn(`if (${cond}) { console.error(await res.json()); }`)), cond).toEqual(["error"]);
    }
  });

  it("the else branch of `if (res.ok)` is the error body, its then branch the success body", () => {
    expect(sides(fn(`if (res.ok) { return await res.json(); } else { throw new Error((await res.json()).message); }`))).toEqual(["success", "error"]);
  });

  it("ternaries and `&&` / `||` guard their operands", () => {
    expect(sides(fn(`return res.ok ? await res.json() : { failed: await res.json() };`))).toEqual(["success", "error"]);
    expect(sides(fn(`const a = res.ok && (await res.json()); const b = !res.ok && (await res.json()); const c = res.ok || (await res.json());`))).toEqual(["success", "error", "error"]);
  });
});

describe("fetch: status ranges", () => {
  it.each([
    "res.status >= 400", "res.status > 399", "res.status !== 200", "res.status != 201", "399 < res.status",
    "!(res.status >= 200 && res.status < 300)", "res.status < 200 || res.status >= 300", "![200, 201].includes(res.status)",
    "res.status === 404", "res.status >= 500 || !res.ok", "res.statusCode >= 300",
  ])("`if (%s)` holds the error body and is exited before the success body", (cond) => {
    expect(sides(fn(`if (${cond}) return { failed: await res.json() };\n return { data: await res.json() };`))).toEqual(["error", "success"]);
  });

  it("`if (res.status < 400)`, `=== 200`, `[200, 201].includes(…)` hold the success body", () => {
    for (const cond of ["res.status < 400", "res.status === 200", "[200, 201].includes(res.status)", "res.status >= 200 && res.status < 300"]) {
      expect(sides(fn(`if (${cond}) { return await res.json(); }\n throw new Error((await res.json()).message);`)), cond).toEqual(["success", "error"]);
    }
  });

  it("a handled error status exited early leaves the success body (404, a 429 retry)", () => {
    expect(sides(fn(`if (res.status === 404) return null;\n return await res.json();`))).toEqual(["success"]);
    expect(sides(`async function f(url: string) { for (;;) { const res = await fetch(url); if (res.status === 429) continue; return await res.json(); } }`)).toEqual(["success"]);
  });

  it("`204` alone says nothing: `!== 204` is a DELETE's error branch or a guard before an optional body", () => {
    expect(sides(fn(`if (res.status === 204) return null;\n return await res.json();`))).toEqual(["unknown"]);
    expect(sides(fn(`if (res.status !== 204) { const { message } = await res.json(); throw new Error(message); }`))).toEqual(["unknown"]);
  });

  it("says whether an error status can reach a read at all", () => {
    const [after, behind404] = [fn(`if (!res.ok) throw new Error();\n return await res.json();`), fn(`if (res.status === 404) return null;\n return await res.json();`)].map((c) => nodes(c, "await res.json()")[0]!);
    expect(describeRead(after!)).toEqual({ side: "success", errorReachable: false });
    expect(describeRead(behind404!)).toEqual({ side: "success", errorReachable: true });
  });

  it("`switch (res.status)`: each case sees its labels (with fall-through), default the rest", () => {
    const code = fn(`switch (res.status) { case 200: case 201: return await res.json(); case 404: return null; default: throw new Error(String(await res.json())); }`);
    expect(sides(code)).toEqual(["success", "error"]);
  });
});

describe("early returns and throws", () => {
  it("`if (res.ok) return …; const err = await res.json()` is the error body", () => {
    expect(sides(fn(`if (res.ok) return await res.json();\n const err = await res.json();\n throw new Error(err.message);`))).toEqual(["success", "error"]);
  });

  it("`if (!res.ok) throw …; const data = await res.json()` is the success body", () => {
    expect(sides(fn(`if (!res.ok) throw new Error(res.statusText);\n const data = await res.json();\n return data;`))).toEqual(["success"]);
    expect(sides(fn(`if (!res.ok) { console.error(res.status); throw new Error("x"); }\n return await res.json();`))).toEqual(["success"]);
  });

  it("an else that exits means the code after the if is its then side", () => {
    expect(sides(fn(`if (res.ok) { console.log("ok"); } else { return null; }\n return await res.json();`))).toEqual(["success"]);
  });

  it("a check of another response does not guard this one", () => {
    expect(sides(`async function f() { const other = await fetch("a"); const res = await fetch("b"); if (!other.ok) throw new Error(); if (other.status >= 400) { return await res.json(); } }`)).toEqual(["success"]);
  });
});

describe("reads without a check, and reads before one", () => {
  it("an unguarded read and `.then((r) => r.json())` are the success body", () => {
    expect(sides(fn(`const pods = await res.json(); return pods;`))).toEqual(["success"]);
    expect(sides(`const p = fetch("u").then((r) => r.json());`, "fetch(\"u\").then((r) => r.json())")).toEqual(["success"]);
    expect(sides(`const p = fetch("u").then((r) => r.ok ? r.json() : Promise.reject(r));`, "r.json()")).toEqual(["success"]);
    expect(sides(`const p = fetch("u").then((r) => r.ok ? null : r.json());`, "r.json()")).toEqual(["error"]);
  });

  it("a read the check comes after serves both sides (unknown); its uses are classified one by one", () => {
    const code = fn(`const data = await res.json();\n if (!res.ok) throw new Error(data.message);\n return data;`);
    const [read] = nodes(code, "await res.json()");
    expect(classifyRead(read!)).toBe("unknown");
    const sf = read!.getSourceFile();
    const use = (text: string) => sf.getDescendants().find((d) => d.getText() === text && d.getStart() > read!.getEnd())!;
    expect(classifyRead(use("data.message"), read)).toBe("error");
    expect(classifyRead(sf.getDescendants().filter((d) => d.getText() === "data").at(-1)!, read)).toBe("success");
  });
});

describe("other transports", () => {
  it("undici: `const { statusCode, body } = await request(…)` is checked through statusCode", () => {
    const code = `async function f(request: any) { const { statusCode, body } = await request("u");\n if (statusCode >= 400) { const e = await body.json(); throw new Error(e.message); }\n return await body.json(); }`;
    expect(sides(code, "await body.json()")).toEqual(["error", "success"]);
  });

  it("axios with validateStatus: `if (r.status >= 400) return { failed: r.data }`", () => {
    const code = `async function f(axios: any) { const r = await axios.get("u", { validateStatus: () => true });\n if (r.status >= 400) return { failed: r.data };\n return r.data; }`;
    expect(sides(code, "r.data")).toEqual(["error", "success"]);
  });

  it("axios `error.response?.data` in a catch, a `.catch` callback, or a typed copy is an error body", () => {
    const reads = [
      ...nodes(`try { await g(); } catch (error) { console.log(error.response?.data); }`, "error.response?.data"),
      ...nodes(`try { await g(); } catch (err) { const e = err as AxiosError; console.log(e.response.data); }`, "e.response.data"),
      ...nodes(`g().catch((err) => err.response.data);`, "err.response.data"),
      ...nodes(`g().then(() => 1, (err) => (err as any).response?.data);`, "(err as any).response?.data"),
    ];
    expect(reads.map((r) => classifyRead(r))).toEqual(["error", "error", "error", "error"]);
  });

  it("ky / got `HTTPError`: `await error.response.json()` and `error.response.body` are error bodies", () => {
    const ky = `try { await ky.get("u").json(); } catch (error) { if (error instanceof HTTPError) { const body = await error.response.json(); throw new Error(body.message); } }`;
    expect(sides(ky, "await error.response.json()")).toEqual(["error"]);
    const got = `try { await got("u").json(); } catch (error: any) { throw new Error(JSON.parse(error.response.body).message); }`;
    expect(sides(got, "error.response.body")).toEqual(["error"]);
  });

  it("`.response.data` of a value that is not a caught error is not an error body", () => {
    const [read] = nodes(`async function f(client: any) { const result = await client.send(); return result.response.data; }`, "result.response.data");
    expect(isHttpErrorBody(read!)).toBe(false);
    expect(classifyRead(read!)).toBe("success");
  });
});
