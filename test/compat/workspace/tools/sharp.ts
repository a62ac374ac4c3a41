// sharp (issue 11): a native addon (N-API, prebuilt) whose binary comes in a platform package npm installs only on a
// matching OS and CPU (@img/sharp-<os>-<cpu>, with libvips in @img/sharp-libvips-<os>-<cpu>). Listed in
// cave.config.json "external": the lock pins every platform's package as optional, the runtime accepts the one
// installed here. The sandboxed tool asks for addons: true, which it gets only under the sandbox's OS layer.
// sharp loads its addon when imported: cave build imports this module in an evaluation child of its own, where native
// addons may load under the OS layer (they are denied everywhere else at build time).
import sharp from "sharp";
import { schema, tool } from "cave";

const input = schema.object({ png: schema.string({ maxLength: 100_000 }), width: schema.integer({ minimum: 1, maximum: 64 }) });
const output = schema.object({ width: schema.integer(), height: schema.integer(), format: schema.string(), bytes: schema.integer() });

async function execute({ png, width }: { png: string; width: number }) {
  const resized = await sharp(Buffer.from(png, "base64")).resize({ width }).png().toBuffer();
  const meta = await sharp(resized).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? "", bytes: resized.length };
}

export const sharpResize = tool({ name: "sharp_resize", description: "Resizes a PNG with sharp.", effect: "read", sandboxProfile: { addons: true }, input, output, execute });
export const sharpResizeHost = tool({ name: "sharp_resize_host", description: "Resizes a PNG with sharp, in process.", effect: "read", sandbox: "none", input, output, execute });
