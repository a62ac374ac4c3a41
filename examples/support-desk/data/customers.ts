/** The customer records the support desk can see. In-memory so the example runs anywhere, with no network. */
export type Tier = "standard" | "plus" | "business";
export type Region = "EU" | "UK" | "US";

export interface Customer {
  customerId: string;
  name: string;
  email: string;
  tier: Tier;
  region: Region;
  createdAt: string;
}

const SEED: readonly Customer[] = [
  { customerId: "CUS-0001", name: "Mina Okafor", email: "mina.okafor@example.com", tier: "plus", region: "EU", createdAt: "2024-02-11T09:24:00Z" },
  { customerId: "CUS-0002", name: "Tomás Rivera", email: "tomas.rivera@example.net", tier: "standard", region: "US", createdAt: "2024-07-30T16:02:00Z" },
  { customerId: "CUS-0003", name: "Yuki Tanaka", email: "yuki@tanaka-design.example", tier: "business", region: "UK", createdAt: "2023-11-05T11:45:00Z" },
  { customerId: "CUS-0004", name: "Priya Natarajan", email: "priya.n@example.org", tier: "standard", region: "EU", createdAt: "2025-01-19T08:10:00Z" },
  { customerId: "CUS-0005", name: "Lena Fischer", email: "lena.fischer@example.de", tier: "plus", region: "EU", createdAt: "2025-06-02T14:37:00Z" },
];

/** Keyed by customer id; write tools change it in place. */
export const customers = new Map<string, Customer>(SEED.map((customer) => [customer.customerId, { ...customer }]));

export function findCustomer(customerId: string): Customer {
  const customer = customers.get(customerId);
  if (!customer) throw new Error(`No customer ${customerId}. Check the id (CUS- and four digits).`);
  return customer;
}
