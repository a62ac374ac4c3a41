// figlet finds its fonts from its own module URL (path.dirname(fileURLToPath(import.meta.url)) + "/../fonts/"): the
// bundle gives that file its place in the build folder's mirror, where cave.config.json "assets" stages the font.
import figlet from "figlet";
import { schema, tool } from "cave";

const input = schema.object({ text: schema.string({ maxLength: 20 }) });
const output = schema.object({ art: schema.string() });

function execute({ text }: { text: string }) {
  return { art: figlet.textSync(text, { font: "Standard" }) };
}

export const figletArt = tool({ name: "figlet", description: "Draws text with figlet.", effect: "read", input, output, execute });
export const figletArtHost = tool({ name: "figlet_host", description: "Draws text with figlet, in process.", effect: "read", sandbox: "none", input, output, execute });
