import { error } from "../diagnostics.js";
import type { Definition } from "./definition.js";
import { describePlace, locate } from "./location.js";

/**
 * The lock keys tools and agents by name, so a name may be defined once in the whole project.
 * Each definition sharing a name gets a diagnostic that names the other places.
 */
export function checkUniqueNames(definitions: readonly Definition[]): void {
  for (const kind of ["tool", "agent"] as const) {
    const byName = new Map<string, Definition[]>();
    for (const definition of definitions) {
      const name = definition.values.name;
      if (definition.kind !== kind || !(definition.module.inBuild || definition.home) || typeof name !== "string")
        continue;
      byName.set(name, [...(byName.get(name) ?? []), definition]);
    }
    for (const [name, group] of byName) {
      if (group.length < 2) continue;
      const places = group.map((d) => describePlace(d.module, d.call));
      group.forEach((definition, i) => {
        const others = places
          .filter((_, j) => j !== i)
          .sort()
          .join(", ");
        definition.diagnostics.push(
          kind === "tool"
            ? error(
                "CAVE3008",
                `tool name ${JSON.stringify(name)} is also defined at ${others}`,
                "Rename one of the tools: the lock keys tools by name, so each name may be defined once in the project.",
                locate(definition.module, definition.call),
              )
            : error(
                "CAVE3009",
                `agent name ${JSON.stringify(name)} is also defined at ${others}`,
                "Rename one of the agents: the lock keys agents by name, so each name may be defined once in the project.",
                locate(definition.module, definition.call),
              ),
        );
      });
    }
  }
}
