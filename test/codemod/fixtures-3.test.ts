// Fixture cases, shard 3 (fixture-suite.ts says what each case checks; fixtures-1.test.ts that the shards cover every case).
import { fixtureShard } from "./fixture-suite.ts";

fixtureShard(3);
