import { z } from "zod";

/**
 * Row shapes, taken from Prisma's generated models so the SQL layer and schema.prisma cannot
 * drift apart silently: a renamed column breaks type-checking here.
 */
export type {
  Artifact as ArtifactRow,
  ArtifactVersion as VersionRow,
  Contract as ContractRow,
  ContractDependency as DependencyRow,
  Event as EventRow,
  Team as TeamRow,
  Token as TokenRow,
} from "../generated/prisma/client.ts";

const Strings = z.array(z.string());
/** A JSON text column holding a list of strings (a session's tools, a state update's findings, a decision's alternatives). */
export const stringsOf = (text: string): string[] => Strings.parse(JSON.parse(text));
