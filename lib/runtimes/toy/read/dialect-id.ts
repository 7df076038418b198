export const TOY_DIALECT_ID = 'toy-loop';
