// Package server hands handlers a connection of the older redigo import
// path, github.com/garyburd/redigo/redis.
package server

import "github.com/garyburd/redigo/redis"

type Context struct {
	Conn redis.Conn
}
