import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';

/** Placeholder until the staff schema lands: built from code, printed to schema.graphql. */
export function buildStaffSchema(): GraphQLSchema {
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { version: { type: GraphQLString } } }) });
}
