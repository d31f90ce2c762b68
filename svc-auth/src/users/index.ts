export { userModel, toUserDto, type UserDoc } from './model';
export { createUsersService, type UsersService, type SessionRevoker } from './service';
export { usersRouter } from './routes';
