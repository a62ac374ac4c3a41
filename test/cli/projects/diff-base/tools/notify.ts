import { tool, schema } from "cave";

export const sendEmail = tool({
  name: "send_email",
  description: "Email a customer.",
  input: schema.object({ to: schema.string({ format: "email" }), body: schema.string({ maxLength: 2000 }) }),
  effect: "external",
  sandboxProfile: { env: ["SMTP_HOST"] },
  execute({ to }) {
    return { sent: to };
  },
});
