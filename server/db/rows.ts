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
